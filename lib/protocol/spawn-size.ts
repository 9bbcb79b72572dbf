// The terminal size a spawn gets when it names none: one place for the daemon that applies it,
// the method table's field docs and the CLI's help (which must load no valibot, so this file
// holds plain numbers only). A browser is larger: Carbonyl's URL bar and page need the room.
export const DEFAULT_SIZE = {
  program: { cols: 120, rows: 40 },
  browser: { cols: 140, rows: 45 },
} as const;
