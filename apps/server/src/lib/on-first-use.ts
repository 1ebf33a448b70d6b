/**
 * What loads an SDK on first use rather than at start (issue 20: a start healthy within a second; the
 * card provider's, mail's and wallet sign-in's SDKs took about 200 ms of every start, used or not).
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
