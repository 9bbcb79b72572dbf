// `help TOPIC` pages that are not verbs (also in `help --markdown`).
export const TOPICS: Record<string, string> = {
  selectors: `Selectors pick nodes of the outline (snapshot --format outline), as in CSS:

  @vim.mode        the node with this ref (durable, from a manifest)
  @e4              a positional ref from the last outline (bound to its revision)
  panel            a role (any bare word)
  *                any node
  [role=input]     attribute equals; also [name=…] [value=…] [ref=…]
  [name^=Pro]      starts with      [name$=.txt]  ends with      [name*=err]  contains
  [name~=/ok/i]    matches a regex (SOURCE or /SOURCE/FLAGS)
  [focused] [selected]
  A B              B inside A (descendant)      A > B   B a child of A
  A, B             either

Values with spaces or ] need quotes: [name="Save as"]. Examples:
  tuiwright snapshot --format outline --plain --select '@htop.processes > [selected]'
  tuiwright wait --ref '@vim.mode' --ref-value insert
  tuiwright click 'panel[name=Files] [name$=.txt]'`,
};

