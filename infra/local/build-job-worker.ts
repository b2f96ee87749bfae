/**
 * Builds the job worker's bundle into the folder given, in a process of its own: its entry is generated
 * from the composition root, and loading that in `npm start`'s process before the local engines'
 * environment is set would fix the configuration without them.
 */
import { bundleJobWorker } from '../worker-bundles';

const [outdir] = process.argv.slice(2);
if (!outdir) throw new Error('usage: build-job-worker.ts <outdir>');
bundleJobWorker(outdir);
