/** The judge call the adapter tests send (hand-written test data): extract a gene, with a confidence. */
import { z } from "zod";
import { systemMessage, userMessage, zodStructuredSchema } from "../llm/index.js";

/** The reply schema: the gene named and a confidence. */
export const GeneAnswer = zodStructuredSchema(
  "Answer",
  z.object({ gene: z.string(), confidence: z.number() }),
);

/** A system prompt and the user's request to extract the gene from a sentence. */
export const GENE_QUESTION = [
  systemMessage("You are a judge."),
  userMessage("Extract the gene from: BCL2 is the target."),
];
