/** The LAME wasm file of wasm-media-encoders, imported `with { type: "file" }` so builds embed it. */
declare module "wasm-media-encoders/wasm/mp3" {
  const path: string;
  export default path;
}
