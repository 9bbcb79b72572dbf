// Manifests are imported as text (`with { type: "text" }`) and parsed by smol-toml.
declare module "*.toml" {
  const text: string;
  export default text;
}
