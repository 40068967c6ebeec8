import { DAY_MS } from '../core/clock.js';

/**
 * How long a Failed user import keeps the sealed passwords of its remaining rows, counted from its failure:
 * the time its retry (`POST …/users/bulk/:operationId/retry`) stays possible. A retry creates those rows with
 * the passwords the file gave or the submission showed once, so it needs them; after this, housekeeping
 * erases them (src/housekeeping) and a retry is refused with 409 naming why. A week covers a failure on a
 * Friday night fixed on Monday, with days to spare; longer would keep credentials nobody is using.
 */
export const FAILED_IMPORT_PASSWORD_RETENTION_DAYS = 7;
export const FAILED_IMPORT_PASSWORD_RETENTION_MS = FAILED_IMPORT_PASSWORD_RETENTION_DAYS * DAY_MS;
