/**
 * A file a route serves as it is (`Route.files`): read from the function's own bundle in Lambda, where
 * the stack put it at the path it has in the repository, and from the repository when run locally.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = () => process.env.LAMBDA_TASK_ROOT ?? process.cwd();

export const routeFile = (path: string): Buffer => readFileSync(resolve(root(), path));
