/**
 * Each OpenAPI tag's description, read from the guide that describes it: an area's page in docs/ claims
 * its tags with `<!-- openapi-tags: Equipment, Vehicles -->` on the line before its summary paragraph,
 * and that paragraph becomes their description. The guide is the one source, so the docs page, the
 * document and the reference at /docs say the same thing. The claims live in the guides, not beside the
 * declarations: a tag is named by an area, a declaration or a route entry (Jobs are declared in one area
 * and served by another), while its guide is one page.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPOSITORY_ROOT } from '../repository';

const CLAIM = /^<!-- openapi-tags: (.+?) -->$/;
/** A markdown link whose target has no scheme: it would resolve against the reference's own address. */
const RELATIVE_LINK = /\]\((?![a-z][a-z0-9+.-]*:)/i;

export type TagGuide = { page: string; description: string };

/** The tags the pages of `directory` claim, each with its page and the paragraph that describes it. */
export const tagGuides = (directory = resolve(REPOSITORY_ROOT, 'docs')): Map<string, TagGuide> => {
  const guides = new Map<string, TagGuide>();
  for (const page of readdirSync(directory).filter((name) => name.endsWith('.md'))) {
    const lines = readFileSync(resolve(directory, page), 'utf8').split('\n');
    lines.forEach((line, index) => {
      const claimed = CLAIM.exec(line.trim())?.[1];
      if (!claimed) return;
      const end = lines.findIndex((next, at) => at > index && next.trim() === '');
      const description = lines
        .slice(index + 1, end === -1 ? undefined : end)
        .map((next) => next.trim())
        .join(' ');
      if (!description)
        throw new Error(`docs/${page}:${index + 1}: openapi-tags must precede the paragraph describing them`);
      if (RELATIVE_LINK.test(description))
        throw new Error(
          `docs/${page}:${index + 1}: a tag's description links nowhere outside the docs: no relative link`,
        );
      for (const tag of claimed.split(',').map((name) => name.trim())) {
        const other = guides.get(tag);
        if (other) throw new Error(`The tag ${tag} is claimed by docs/${other.page} and docs/${page}`);
        guides.set(tag, { page, description });
      }
    });
  }
  return guides;
};

/** The document's tags: each tag the routes use, described by its guide; a tag without one, or a claim no route uses, fails. */
export const describedTags = (used: readonly string[], guides = tagGuides()) => {
  const stale = [...guides].filter(([tag]) => !used.includes(tag));
  if (stale.length)
    throw new Error(
      `No route has the tag(s) ${stale.map(([tag, { page }]) => `${tag} (docs/${page})`).join(', ')}`,
    );
  return [...new Set(used)].sort().map((name) => {
    const guide = guides.get(name);
    if (!guide)
      throw new Error(
        `The tag ${name} has no description: claim it in its area's guide, docs/<area>.md, with <!-- openapi-tags: ${name} --> on the line before its summary paragraph`,
      );
    return { name, description: guide.description };
  });
};
