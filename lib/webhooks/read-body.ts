/** Reads a request body as text, counting every byte but keeping at most `keepBytes` of it. */
export async function readBodyLimited(
  request: Request,
  keepBytes: number,
): Promise<{ text: string; bytes: number }> {
  if (!request.body) return { text: "", bytes: 0 };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let kept = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (kept < keepBytes) {
      const part = value.subarray(0, keepBytes - kept);
      chunks.push(part);
      kept += part.byteLength;
    }
  }
  return { text: Buffer.concat(chunks).toString("utf8"), bytes };
}
