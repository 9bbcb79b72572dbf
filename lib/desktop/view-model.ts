// What one view of an application shows, as plain data: extracted from the view's DOM inside
// the app's worker, posted to the desktop, rendered to Markdown there. Immutable once made:
// a snapshot keeps a reference to the models it rendered (value-driven execution reads them).

export type Block =
  | { kind: "heading"; level: number; text: string; entity?: string }
  | { kind: "text"; text: string; entity?: string }
  /** Preformatted text (<pre>): its line breaks and spaces are kept. */
  | { kind: "pre"; text: string }
  | { kind: "list"; id: string; type: string; title: string; items: Item[] };

export type Item = { label: string; key: string | null; value: unknown };

export type ArgSpec = { name: string; type: string; optional: boolean };

export type OperationSpec = { id: string; label: string; args: ArgSpec[] };

export type ViewModel = {
  /** The app-local view number (its creation order); the desktop maps it to a view id. */
  ordinal: number;
  name: string;
  blocks: Block[];
  operations: OperationSpec[];
};
