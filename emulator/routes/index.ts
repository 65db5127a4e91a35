import { Router } from "../router";
import { register as registerAlerts } from "./alerts";
import { register as registerFilters } from "./filters";
import { register as registerMetrics } from "./metrics";
import { register as registerPii } from "./pii";
import { register as registerSessions } from "./sessions";

/** The router of every API endpoint of spec section 4. */
export function createApiRouter(): Router {
  const router = new Router();
  registerSessions(router);
  registerMetrics(router);
  registerAlerts(router);
  registerFilters(router);
  registerPii(router);
  return router;
}
