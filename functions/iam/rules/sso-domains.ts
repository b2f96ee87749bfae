/**
 * Which addresses may sign in through an SSO provider: those of the domains it allows (an address at a
 * subdomain is not at the domain: `a@eu.northmere.example` needs `eu.northmere.example` listed). Pure.
 */
export const emailDomainAllowed = (address: string, allowed: readonly string[]): boolean => {
  const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  return address.includes('@') && allowed.some((d) => d.toLowerCase() === domain);
};
