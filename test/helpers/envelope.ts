/** The REST envelope of SPEC 2.1, as tests read it. */
export interface Envelope<T = unknown> {
  success: boolean;
  data: T;
  meta?: { page: number; limit: number; total: number };
  error?: { code: string; message: string; details: Record<string, unknown> };
}
