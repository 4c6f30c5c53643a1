// How failed attempts lock an account (lib/auth/credentials.ts), and what the sign-in page says about it:
// a locked account is refused with the same words as a wrong password, so the words explain the lock.
export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MINUTES = 15;
