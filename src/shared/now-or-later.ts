/**
 * `use` of a value that is most often at hand and sometimes still to come (a token held or being
 * fetched, an account listed or still to be read): applied at once to a value, so the common case
 * makes no promise and waits no microtask, and once it comes to a promise.
 */
export function nowOrLater<T, R>(value: T | Promise<T>, use: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(use) : use(value);
}
