// Example workspace (hand-written): a median with two bugs. It sorts the numbers as text (so 10 comes
// before 9), and for an even count it returns one middle value instead of the mean of the two.
export function median(numbers) {
  const sorted = [...numbers].sort();
  return sorted[Math.floor(sorted.length / 2)];
}
