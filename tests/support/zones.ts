// Zones whose days are hard to get right: a 45-minute and a half-hour offset, clocks that fall back onto
// midnight (Amman, 2021), and the zones whose rules Node's and PostgreSQL's zone data disagree on
// (Vancouver from 2026-11-01, Chisinau's switch hour): statements and closings must follow Node's.
export const AWKWARD_ZONES = [
  "UTC",
  "America/Vancouver",
  "Europe/Chisinau",
  "Asia/Amman",
  "Pacific/Chatham",
  "Asia/Kolkata",
] as const;
