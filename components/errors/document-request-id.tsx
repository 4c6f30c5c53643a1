"use client";
import { createContext, useContext, useEffect, useState } from "react";

// The id of the request that rendered this document (the root layout passes it down). An error met
// while the document first renders belongs to that request. After the first render, errors come
// from other requests (client-side navigations, refreshes, actions) whose ids the page cannot see:
// then nothing is shown rather than a wrong id.
const DocumentRequestId = createContext<string | null>(null);
let firstRenderDone = false;

export function DocumentRequestIdProvider({
  requestId,
  children,
}: {
  requestId: string | null;
  children: React.ReactNode;
}) {
  useEffect(() => {
    firstRenderDone = true;
  }, []);
  return <DocumentRequestId value={requestId}>{children}</DocumentRequestId>;
}

/** The document's request id while the document first renders, otherwise null. */
export function useDocumentRequestId(): string | null {
  const requestId = useContext(DocumentRequestId);
  const [shown] = useState(() => (firstRenderDone ? null : requestId));
  return shown;
}
