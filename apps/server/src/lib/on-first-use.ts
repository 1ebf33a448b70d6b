/**
 * What loads an SDK on first use rather than at start, so a start stays healthy within a second: the
 * card provider's, mail's and wallet sign-in's SDKs cost every start, used or not
 * (docs/decisions/0007-server-bundle.md).
 */

/**
 * A function that runs `make()` once, when first called, and answers its promise then and after (a
 * rejected one too: the caller's request fails as it would have at start).
 */
export function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}
