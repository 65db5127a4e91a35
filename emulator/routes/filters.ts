import type { Router } from "../router";

/**
 * Routes of the filters API family.
 * STUB: filled in by the owner of this family.
 */
export function register(_router: Router): void {}
