/** Every kind of job a worker can run: importing this registers each (`registerJobKind`). */
import '#functions/places/import-job';
import '#functions/exports/export-job';
