/** Reads a request body as text, counting every byte but keeping at most `keepBytes` of it. */
export async function readBodyLimited(
  body: AsyncIterable<Uint8Array> | null,
  keepBytes: number,
): Promise<{ text: string; bytes: number }> {
  if (!body) return { text: "", bytes: 0 };
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let kept = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (kept < keepBytes) {
      const part = chunk.subarray(0, keepBytes - kept);
      chunks.push(part);
      kept += part.byteLength;
    }
  }
  return { text: Buffer.concat(chunks).toString("utf8"), bytes };
}
