// Files imported `with { type: "text" }` (embedded migrations) or `with { type: "file" }` (embedded assets).
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.wasm" {
  const path: string;
  export default path;
}
declare module "*.css" {
  const path: string;
  export default path;
}
declare module "*.html" {
  const path: string;
  export default path;
}
declare module "*.js" {
  const path: string;
  export default path;
}
declare module "*.txt" {
  const text: string;
  export default text;
}
declare module "*.tsv" {
  const text: string;
  export default text;
}
