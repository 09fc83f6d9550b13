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
 * The constructors are subclasses of Node's, whose prototypes are put in front of the app's
 * (`app.request` and `app.response` then name them): Express's methods and getters stay where they
 * were, one level further up. Subclasses, not plain functions that call Node's constructors on an
 * object of the app's prototype: with those, the fast path's kept page and the requests passed to a
 * backend, which never meet Express, cost a quarter to a third more CPU, and allocated more (most
 * likely their fields out of line: V8 sizes an object by its constructor).
 */
export function appMessages(app: AppPrototypes): Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  let made = madeFor.get(app);
  if (!made) {
    class AppRequest extends IncomingMessage {}
    Object.setPrototypeOf(AppRequest.prototype, app.request);
    app.request = AppRequest.prototype;
    class AppResponse extends ServerResponse {}
    Object.setPrototypeOf(AppResponse.prototype, app.response);
    app.response = AppResponse.prototype;
    made = { IncomingMessage: AppRequest, ServerResponse: AppResponse as typeof ServerResponse };
    madeFor.set(app, made);
  }
  return made;
}

/** What `appMessages` needs of an Express app: the prototypes Express gives its requests and responses. */
export interface AppPrototypes {
  request: object;
  response: object;
}

/** Once per app: a second call gives the same constructors (and puts no second level in front). */
const madeFor = new WeakMap<AppPrototypes, { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse }>();
