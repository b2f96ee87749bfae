/** A body for each of the images area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { createHash } from 'node:crypto';
import { one, type RequestExamples } from '#shared/engine/examples';

/** The example image: an 8 × 6 JPEG (267 bytes); the every-record builder uploads it, so its size and SHA-256 are these. */
export const EXAMPLE_IMAGE = Buffer.from(
  '/9j/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAAGAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAP/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AIAHCv/Z',
  'base64',
);

export const examples: RequestExamples = {
  createImage: (i) => ({
    data: {
      type: 'images',
      attributes: {
        filename: 'valve-chamber.jpg',
        media_type: 'image/jpeg',
        size: EXAMPLE_IMAGE.length,
        sha256: createHash('sha256').update(EXAMPLE_IMAGE).digest('base64'),
        caption: 'Valve chamber VC-101 before reinstatement',
        location: { latitude: 51.5072, longitude: -0.1276, accuracy: 8, heading: 90 },
      },
      relationships: { subject: one('schemes', i.scheme_id) },
    },
  }),
  updateImage: (i) => ({
    data: {
      type: 'images',
      id: i.image_id,
      attributes: { caption: 'Valve chamber VC-101, lid lifted', location_visibility: 'organisation' },
    },
  }),
  completeImage: null,
  replaceImageAnnotations: () => ({
    meta: {
      annotations: [
        { kind: 'arrow', x: 0.2, y: 0.2, x2: 0.45, y2: 0.5, colour: '#ff0000' },
        { kind: 'box', x: 0.4, y: 0.45, width: 0.2, height: 0.2 },
        { kind: 'text', x: 0.05, y: 0.9, text: 'Crack in chamber wall' },
        { kind: 'blur', x: 0.7, y: 0.1, width: 0.2, height: 0.25 },
      ],
    },
  }),
};
