// The response and request types of the web app's config screens, inferred from the route schemas.
import type { z } from "zod";
import type { ModelDefaultsSchema } from "../config/index.js";

/** The default model settings (`GET`/`PUT /api/v2/config/defaults`). */
export type ApiModelDefaults = z.input<typeof ModelDefaultsSchema>;
