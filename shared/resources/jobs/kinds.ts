/** Every kind of job a worker can run: importing this registers each (`registerJobKind`). */
import '../places/import-job';
import '../exports/export-job';
