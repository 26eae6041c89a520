import { z } from "zod";

/**
 * Zod schemas of the JSON-LD checkpoint format (spec 01 §6). They are the one source of the format's
 * shape: validation on load, the key order used on save, and the types of the in-memory document.
 * Objects are loose: keys this format does not know are kept and written back.
 */

const jsonValue: z.ZodType<unknown> = z.unknown();

export const PropertyValueSchema = z.looseObject({
  "@type": z.literal("PropertyValue").default("PropertyValue"),
  name: z.string(),
  value: jsonValue.optional(),
});
export type PropertyValue = z.infer<typeof PropertyValueSchema>;

/** The fourteen `additionalType`s a rating may carry (spec 01 §6.9). */
export const RATING_TYPES = [
  "karenina:GlobalRubricTrait",
  "karenina:QuestionSpecificRubricTrait",
  "karenina:GlobalLLMRubricTrait",
  "karenina:QuestionSpecificLLMRubricTrait",
  "karenina:GlobalRegexTrait",
  "karenina:QuestionSpecificRegexTrait",
  "karenina:GlobalCallableTrait",
  "karenina:QuestionSpecificCallableTrait",
  "karenina:GlobalMetricRubricTrait",
  "karenina:QuestionSpecificMetricRubricTrait",
  "karenina:GlobalAgenticRubricTrait",
  "karenina:QuestionSpecificAgenticRubricTrait",
  "karenina:GlobalDynamicRubricTrait",
  "karenina:QuestionSpecificDynamicRubricTrait",
] as const;
export type RatingType = (typeof RATING_TYPES)[number];

/** Reads an `additionalType`, adding the `karenina:` prefix older files leave out. */
const ratingTypeSchema = z.preprocess(
  (value) =>
    typeof value === "string" && value !== "" && !value.includes(":") ? `karenina:${value}` : value,
  z.enum(RATING_TYPES, { error: () => `one of ${RATING_TYPES.join(", ")}` }),
);

export const RatingSchema = z.looseObject({
  "@type": z.literal("Rating").default("Rating"),
  "@id": z.string().optional(),
  name: z.string(),
  description: z.string().optional(),
  bestRating: z.number(),
  worstRating: z.number(),
  ratingValue: z.number().optional(),
  ratingExplanation: z.string().optional(),
  additionalType: ratingTypeSchema,
  additionalProperty: z.array(PropertyValueSchema).optional(),
});
export type Rating = z.infer<typeof RatingSchema>;

export const AnswerSchema = z.looseObject({
  "@type": z.literal("Answer").default("Answer"),
  "@id": z.string().optional(),
  text: z.string(),
});
export type Answer = z.infer<typeof AnswerSchema>;

/**
 * The answer template. The original accepts only `Python`; we also write `JavaScript` for templates authored
 * in TypeScript (a file holding one is refused by the original, which is said in docs/decisions.md).
 */
export const TEMPLATE_LANGUAGES = ["Python", "JavaScript"] as const;
export type TemplateLanguage = (typeof TEMPLATE_LANGUAGES)[number];

export const SoftwareSourceCodeSchema = z.looseObject({
  "@type": z.literal("SoftwareSourceCode").default("SoftwareSourceCode"),
  "@id": z.string().optional(),
  name: z.string(),
  text: z.string(),
  programmingLanguage: z.enum(TEMPLATE_LANGUAGES).default("Python"),
  codeRepository: z.string().optional(),
});
export type SoftwareSourceCode = z.infer<typeof SoftwareSourceCodeSchema>;

export const SchemaOrgQuestionSchema = z.looseObject({
  "@type": z.literal("Question").default("Question"),
  "@id": z.string().optional(),
  text: z.string(),
  acceptedAnswer: AnswerSchema,
  hasPart: SoftwareSourceCodeSchema,
  rating: z.array(RatingSchema).optional(),
  additionalProperty: z.array(PropertyValueSchema).optional(),
  keywords: z.array(z.string()).optional(),
});
export type SchemaOrgQuestion = z.infer<typeof SchemaOrgQuestionSchema>;

export const DataFeedItemSchema = z.looseObject({
  "@type": z.literal("DataFeedItem").default("DataFeedItem"),
  "@id": z.string().optional(),
  dateCreated: z.string(),
  dateModified: z.string(),
  keywords: z.array(z.string()).optional(),
  item: SchemaOrgQuestionSchema,
});
export type DataFeedItem = z.infer<typeof DataFeedItemSchema>;

export const PersonSchema = z.looseObject({
  "@type": z.literal("Person").default("Person"),
  name: z.string(),
  url: z.string().optional(),
  email: z.string().optional(),
});
export type Person = z.infer<typeof PersonSchema>;

/** Multi-turn scenario definitions are kept as opaque objects until scenarios are implemented. */
export const ScenarioSchema = z.looseObject({ "@type": z.string().optional() });

export const DataFeedSchema = z.looseObject({
  "@context": z.record(z.string(), z.unknown()),
  "@type": z.literal("DataFeed").default("DataFeed"),
  "@id": z.string().optional(),
  name: z.string(),
  description: z.string().optional(),
  version: z.string().optional(),
  creator: z.union([z.string(), PersonSchema]).optional(),
  dateCreated: z.string(),
  dateModified: z.string(),
  rating: z.array(RatingSchema).optional(),
  dataFeedElement: z.array(DataFeedItemSchema),
  hasPart: z.array(ScenarioSchema).optional(),
  additionalProperty: z.array(PropertyValueSchema).optional(),
});
/** A checkpoint document in memory: the parsed, validated JSON-LD tree. */
export type DataFeed = z.infer<typeof DataFeedSchema>;

/** The `@context` every save writes (spec 01 §6.2), whatever the loaded file had. */
export const CHECKPOINT_CONTEXT = {
  "@version": 1.1,
  "@vocab": "https://schema.org/",
  karenina: "urn:karenina:vocab:",
  dataFeedElement: { "@id": "dataFeedElement", "@container": "@set" },
  item: { "@id": "item", "@type": "@id" },
  acceptedAnswer: { "@id": "acceptedAnswer", "@type": "@id" },
  rating: { "@id": "contentRating", "@container": "@set" },
  additionalProperty: { "@id": "additionalProperty", "@container": "@set" },
  hasPart: { "@id": "hasPart", "@container": "@set" },
  keywords: { "@id": "keywords", "@container": "@set" },
} as const;
