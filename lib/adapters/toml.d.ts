// Manifests are imported as text (`with { type: "text" }`) and parsed by smol-toml.
declare module "*.toml" {
  const text: string;
  export default text;
}

// Binary assets embedded with `with { type: "file" }` import as their path.
declare module "*.wasm" {
  const path: string;
  export default path;
}
declare module "*.ttf" {
  const path: string;
  export default path;
}
declare module "*.min.js" {
  const text: string;
  export default text;
}
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "*.md" {
  const text: string;
  export default text;
}
