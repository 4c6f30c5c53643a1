import "server-only";
import QRCode from "qrcode";

/** An SVG QR code of the text as a data: URL (made on the server; the browser only shows an <img>). */
export async function qrDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}
