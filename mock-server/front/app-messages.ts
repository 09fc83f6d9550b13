import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';

/**
 * The request and response constructors for the `http.Server` of an Express app: Node's own,
 * except that each object is made with the app's prototypes (`app.request`, `app.response`)
 * from the start, so that Express, which moves every request and response onto those
 * prototypes (`Object.setPrototypeOf` in `app.handle`), finds them there already and changes
 * nothing.
 *
 * Why (issue 27, docs/benchmarks.md): moving a fresh object onto another prototype made V8's
 * young collection keep about 10 KB of each request's objects (request, response, headers,
 * router state) alive past its end, so they were copied and promoted: the random uncached page
 * at a million reviews spent a fifth of its CPU in the collector. A bare Express 5 app serving
 * a 10 KB answer showed the same (1.9 MB kept per scavenge against 3 KB with these
 * constructors, and about 1.7x the CPU per request); `node:http` alone keeps nothing.
 *
 * Node's `IncomingMessage` and `ServerResponse` are plain constructor functions (Node 20 to 24),
 * called here on the new object; should a later Node make them classes, which cannot be called
 * so, the server keeps Node's own (and Express moves the prototypes, as before).
 */
export function appMessages(app: { request: object; response: object }, node: NodeMessages = { IncomingMessage, ServerResponse }): Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  const { IncomingMessage: Request, ServerResponse: Response } = node;
  if (isClass(Request) || isClass(Response)) return {};
  function AppRequest(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>): void {
    Request.apply(this, args);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>): void {
    Response.apply(this, args);
  }
  AppResponse.prototype = app.response;
  return { IncomingMessage: AppRequest as unknown as typeof IncomingMessage, ServerResponse: AppResponse as unknown as typeof ServerResponse };
}

/** Node's constructors (a parameter for the tests: what a Node whose constructors are classes gets). */
export interface NodeMessages {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

function isClass(fn: unknown): boolean {
  return typeof fn !== 'function' || /^class\b/.test(Function.prototype.toString.call(fn));
}
