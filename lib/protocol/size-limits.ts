// The one bound on terminal sizes, shared by spawn, resize, set_viewport and replay (cast
// headers and `r` events): a hostile 100000×100000 cast must not allocate gigabytes.
export const MIN_COLS = 2;
export const MAX_COLS = 1000;
export const MIN_ROWS = 1;
export const MAX_ROWS = 500;

export function sizeFits(cols: number, rows: number): boolean {
  return Number.isInteger(cols) && Number.isInteger(rows) && cols >= MIN_COLS && cols <= MAX_COLS && rows >= MIN_ROWS && rows <= MAX_ROWS;
}

export const SIZE_RANGE = `cols ${MIN_COLS}..${MAX_COLS}, rows ${MIN_ROWS}..${MAX_ROWS}`;
