/** The one way a route answers 204: an empty Response (the status set on `set` alone would send a body). */
export function noContent(): Response {
  return new Response(null, { status: 204 });
}
