import { RefusalPage, refusalMetadata } from "@/components/errors/refusal-page";

export const generateMetadata = () => refusalMetadata("notFound");

export default function NotFound() {
  return <RefusalPage refusal="notFound" />;
}
