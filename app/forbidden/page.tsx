import { RefusalPage, refusalMetadata } from "@/components/errors/refusal-page";

export const generateMetadata = () => refusalMetadata("forbidden");

export default function ForbiddenPage() {
  return <RefusalPage refusal="forbidden" />;
}
