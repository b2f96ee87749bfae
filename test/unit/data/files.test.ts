/**
 * Issue 15, finding 2: every presigned upload the service hands out signs the client's SHA-256 as a
 * header. `presignUpload` is the only code that presigns a PUT (checked below over the whole source
 * tree) and takes the checksum as a required member of the declared file, so checking it checks every
 * upload URL the service hands out.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Presigning makes no request; a local endpoint gives the client fixed credentials instead of the
// default chain (which would look for AWS ones). Configuration is read when files.ts first loads.
process.env.S3_ENDPOINT ??= 'http://127.0.0.1:9';
const { presignUpload } = await import('#shared/data/files');

const root = resolve(import.meta.dirname, '../../..');
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
const declared = { contentType: 'text/csv', bytes: 12, sha256: sha256('reference\nA') };

describe('presignUpload: the checksum is a signed header', () => {
  it('X-Amz-SignedHeaders lists x-amz-checksum-sha256 (with content-type and content-length), and the headers to send carry the client’s checksum', async () => {
    const upload = await presignUpload('bucket', 'uploads/org/id', declared);
    const query = new URL(upload.url).searchParams;
    expect(query.get('X-Amz-SignedHeaders')?.split(';').sort()).toEqual([
      'content-length',
      'content-type',
      'host',
      'x-amz-checksum-sha256',
    ]);
    expect(upload.headers).toEqual({
      'content-type': 'text/csv',
      'content-length': '12',
      'x-amz-checksum-sha256': declared.sha256,
    });
  });

  it('no checksum travels in the query string, where S3 signs it and then ignores it', async () => {
    const upload = await presignUpload('bucket', 'uploads/org/id', declared);
    const names = [...new URL(upload.url).searchParams.keys()].map((k) => k.toLowerCase());
    expect(
      names.filter((k) => k.startsWith('x-amz-checksum') || k === 'x-amz-sdk-checksum-algorithm'),
    ).toEqual([]);
  });

  it('the signature covers the checksum: another checksum gives another signature', async () => {
    const signature = async (checksum: string) =>
      new URL((await presignUpload('bucket', 'k', { ...declared, sha256: checksum })).url).searchParams.get(
        'X-Amz-Signature',
      );
    expect(await signature(sha256('one'))).not.toBe(await signature(sha256('two')));
  });
});

describe('presigned PUTs come from presignUpload only', () => {
  const sources = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => relative(root, join(e.parentPath, e.name)));

  it('no module but shared/data/files.ts imports the presigner or builds a PutObjectCommand', () => {
    // shared/data/s3.ts only re-exports the SDK, so that files.ts loads it on first use: it calls nothing.
    const s3 = join('shared', 'data', 's3.ts');
    const offenders = ['shared', 'functions', 'infra']
      .flatMap(sources)
      .filter((file) => file !== join('shared', 'data', 'files.ts'))
      .filter((file) =>
        (file === s3
          ? /getSignedUrl\(|new PutObjectCommand/
          : /s3-request-presigner|PutObjectCommand|getSignedUrl/
        ).test(readFileSync(join(root, file), 'utf8')),
      );
    expect(offenders).toEqual([]);
  });
});
