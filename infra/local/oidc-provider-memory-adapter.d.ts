/** oidc-provider's own in-memory store (no types of its own; the package has no `exports` map). */
declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  import type { AdapterFactory } from 'oidc-provider';
  export function createMemoryAdapter(clockTolerance?: number): AdapterFactory;
}
