import { z } from "zod";

/** Retry budget and backoff of one error category (spec 04 §2.4). `max_attempts` counts retries. */
export const CategoryRetryConfigSchema = z.strictObject({
  max_attempts: z.int().min(0),
  backoff_min: z.number().min(0).default(1.0),
  backoff_max: z.number().min(0).default(10.0),
  backoff_multiplier: z.number().min(1).default(2.0),
});
export type CategoryRetryConfig = z.output<typeof CategoryRetryConfigSchema>;

/** Growing timeouts for timeout retries of streaming calls. */
export const TimeoutEscalationConfigSchema = z
  .strictObject({
    strategy: z.enum(["additive", "multiplicative", "linear"]),
    increment: z.number().min(0).default(0),
    multiplier: z.number().min(1).default(1),
    max_timeout: z.number().min(0).nullable().default(null),
  })
  .superRefine((value, ctx) => {
    if (value.strategy === "additive" && value.increment <= 0) {
      ctx.addIssue({ code: "custom", path: ["increment"], message: "must be > 0 for the additive strategy" });
    }
    if (value.strategy === "multiplicative" && value.multiplier <= 1) {
      ctx.addIssue({
        code: "custom",
        path: ["multiplier"],
        message: "must be > 1 for the multiplicative strategy",
      });
    }
    if (value.strategy === "linear" && value.max_timeout === null) {
      ctx.addIssue({ code: "custom", path: ["max_timeout"], message: "is required for the linear strategy" });
    }
  });

const category = (max_attempts: number, backoff_min: number, backoff_max: number) =>
  CategoryRetryConfigSchema.default({ max_attempts, backoff_min, backoff_max, backoff_multiplier: 2.0 });

/** Per-category retry budgets, stamped onto every model lacking its own. */
export const RetryPolicySchema = z.strictObject({
  connection: category(3, 1, 10),
  timeout: category(3, 5, 30),
  rate_limit: category(5, 5, 30),
  server_error: category(2, 2, 15),
  timeout_escalation: TimeoutEscalationConfigSchema.nullable().default(null),
});
export type RetryPolicy = z.output<typeof RetryPolicySchema>;

/** The single retry count for SDKs that take one: the largest category budget. */
export function deriveSdkMaxRetries(policy: RetryPolicy): number {
  return Math.max(
    policy.connection.max_attempts,
    policy.timeout.max_attempts,
    policy.rate_limit.max_attempts,
    policy.server_error.max_attempts,
  );
}

/** An extra error-classification rule (spec 04 §14.1). */
export const ErrorPatternConfigSchema = z.strictObject({
  pattern: z.string(),
  category: z.enum(["connection", "timeout", "rate_limit", "server_error", "permanent"]),
  match_type: z.enum(["type_name", "message_substring"]).default("message_substring"),
});
export type ErrorPatternConfig = z.output<typeof ErrorPatternConfigSchema>;
