/**
 * The relative links of markdown pages, checked as GitHub resolves them: a path relative to the page (or,
 * starting with `/`, to the repository), which must exist, and an `#anchor`, which must be the slug of a
 * heading on the page it names. Links in code (fenced blocks, code spans) and HTML comments are not links.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
/** `[text](destination "title")`, the text holding at most one level of brackets; `![alt](src)` too. */
const INLINE_LINK = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
/** A scheme (`https:`, `mailto:`): not a relative link. */
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/** Each line outside fenced code blocks, with code spans and HTML comments blanked out. */
const proseLines = (text: string): { line: number; text: string }[] => {
  const lines: { line: number; text: string }[] = [];
  let fence: string | undefined;
  const withoutComments = text.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ' '));
  withoutComments.split('\n').forEach((line, index) => {
    const opening = FENCE.exec(line)?.[1];
    if (fence) {
      if (opening && opening[0] === fence[0] && opening.length >= fence.length) fence = undefined;
      return;
    }
    if (opening) {
      fence = opening;
      return;
    }
    lines.push({ line: index + 1, text: line.replace(/(`+)[\s\S]*?\1/g, 'code') });
  });
  return lines;
};

/** GitHub's slug of a heading: its text as rendered, lower case, punctuation dropped, spaces as `-`. */
export const slugOf = (heading: string): string =>
  heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');

/** The anchors a page's headings make, a repeated slug numbered as GitHub numbers it (`-1`, `-2`). */
export const anchorsOf = (text: string): Set<string> => {
  const anchors = new Set<string>();
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const opening = FENCE.exec(line)?.[1];
    if (fence) {
      if (opening && opening[0] === fence[0] && opening.length >= fence.length) fence = undefined;
      continue;
    }
    if (opening) {
      fence = opening;
      continue;
    }
    const heading = HEADING.exec(line)?.[2];
    if (heading === undefined) continue;
    const slug = slugOf(heading);
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
};

export type BrokenLink = { page: string; line: number; link: string; why: string };

/** Every relative link of the pages (paths from `root`) that does not resolve, with why. */
export const brokenLinks = (root: string, pages: readonly string[]): BrokenLink[] => {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (file: string) => {
    const known = anchorCache.get(file);
    if (known) return known;
    const anchors = anchorsOf(readFileSync(file, 'utf8'));
    anchorCache.set(file, anchors);
    return anchors;
  };
  const broken: BrokenLink[] = [];
  for (const page of pages) {
    const pageFile = resolve(root, page);
    for (const { line, text } of proseLines(readFileSync(pageFile, 'utf8'))) {
      for (const match of text.matchAll(INLINE_LINK)) {
        const link = (match[1] ?? '').replace(/^<|>$/g, '');
        if (ABSOLUTE.test(link) || link.startsWith('//')) continue;
        const hash = link.indexOf('#');
        const path = decodeURIComponent(hash === -1 ? link : link.slice(0, hash));
        const anchor = hash === -1 ? undefined : decodeURIComponent(link.slice(hash + 1));
        const target =
          path === ''
            ? pageFile
            : path.startsWith('/')
              ? resolve(root, `.${path}`)
              : resolve(dirname(pageFile), path);
        const report = (why: string) => broken.push({ page, line, link, why });
        if (!existsSync(target)) {
          report(`no file ${relative(root, target)}`);
          continue;
        }
        if (anchor === undefined || anchor === '') continue;
        if (statSync(target).isDirectory() || !target.endsWith('.md')) {
          report(`an anchor on ${relative(root, target)}, which is no markdown page`);
          continue;
        }
        if (!anchorsIn(target).has(anchor)) report(`no heading #${anchor} on ${relative(root, target)}`);
      }
    }
  }
  return broken;
};
