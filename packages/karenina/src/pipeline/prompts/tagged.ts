/** A labelled, tagged block: `Label:\n<tag>\ntext\n</tag>`, the form every judge prompt uses for its inputs. */
export function taggedBlock(label: string, tag: string, text: string): string {
  return `${label}:\n<${tag}>\n${text}\n</${tag}>`;
}

export function bulletList(lines: readonly string[]): string {
  return lines.map((line) => `- ${line}`).join("\n");
}
