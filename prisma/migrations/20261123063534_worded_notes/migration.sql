-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "outcomeArgs" JSONB,
ADD COLUMN     "outcomeCode" TEXT;

-- AlterTable
ALTER TABLE "ReconciliationRun" ADD COLUMN     "errorCode" TEXT,
ADD COLUMN     "stopArgs" JSONB,
ADD COLUMN     "stopCode" TEXT;


-- Old rows: the English sentences the receiver, the worker and "process again" wrote become codes and
-- arguments (lib/webhooks/outcome-notes.ts, lib/reconcile/run-notes.ts), worded in the reader's language.
-- A sentence that matches no code stays as it was, shown as stored.

CREATE FUNCTION pg_temp.paydesk_applied_note(said text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE said
    WHEN 'already mirrored' THEN 'alreadyMirrored'
    WHEN 'older than the mirrored state' THEN 'olderThanMirror'
    WHEN 'would change a final status' THEN 'wouldChangeFinal'
  END
$$;

-- Why a hint was read back ("read back: <reason>").
CREATE FUNCTION pg_temp.paydesk_unconfirmed(reason text) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN reason = 'the operation is not mirrored' THEN jsonb_build_object('why', 'notMirrored')
    WHEN reason = 'unconfirmed' THEN jsonb_build_object('why', 'unconfirmed')
    WHEN reason ~ '^final status \S+$'
      THEN jsonb_build_object('why', 'finalStatus', 'status', substring(reason from '^final status (\S+)$'))
    WHEN reason ~ '^dateUpdated \S+ is later than its arrival$'
      THEN jsonb_build_object('why', 'dateAhead', 'at', substring(reason from '^dateUpdated (\S+) '))
    WHEN reason ~ '^it differs from the mirror in .+$'
      THEN jsonb_build_object('why', 'differsFromMirror',
             'fields', to_jsonb(string_to_array(substring(reason from '^it differs from the mirror in (.+)$'), ', ')))
  END
$$;

-- One sentence (without the "only its first ... bytes kept" tail) as {code, args}, or NULL.
CREATE FUNCTION pg_temp.paydesk_webhook_note(d text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  m text[];
BEGIN
  IF d = 'wrong or missing secret path segment' THEN
    RETURN jsonb_build_object('code', 'wrongPathSecret', 'args', '{}'::jsonb);
  ELSIF d = 'missing or wrong bearer token' THEN
    RETURN jsonb_build_object('code', 'wrongBearerToken', 'args', '{}'::jsonb);
  ELSIF d = 'body contains NUL characters (stored with U+FFFD in their place)' THEN
    RETURN jsonb_build_object('code', 'bodyHasNul', 'args', '{}'::jsonb);
  ELSIF d = 'Webhook body is empty' THEN
    RETURN jsonb_build_object('code', 'bodyEmpty', 'args', '{}'::jsonb);
  ELSIF d = 'Webhook body is not a JSON object' THEN
    RETURN jsonb_build_object('code', 'bodyNotObject', 'args', '{}'::jsonb);
  ELSIF d = 'Webhook envelope carries no operation object' THEN
    RETURN jsonb_build_object('code', 'envelopeNoOperation', 'args', '{}'::jsonb);
  END IF;
  m := regexp_match(d, '^source IP (.+) is not in the allowlist$');
  IF m IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'ipNotAllowed',
      'args', jsonb_build_object('ip', CASE WHEN m[1] = 'unknown' THEN NULL ELSE m[1] END));
  END IF;
  m := regexp_match(d, '^body of (\d+) bytes, more than (\d+) bytes$');
  IF m IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'bodyTooLarge',
      'args', jsonb_build_object('bytes', m[1]::bigint, 'limit', m[2]::bigint));
  END IF;
  m := regexp_match(d, '^body of more than (\d+) bytes$');
  IF m IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'bodyTooLarge',
      'args', jsonb_build_object('bytes', NULL, 'limit', m[1]::bigint));
  END IF;
  m := regexp_match(d, '^Webhook body is not JSON: (.*)$');
  IF m IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'bodyNotJson', 'args', jsonb_build_object('detail', m[1]));
  END IF;
  m := regexp_match(d, '^Webhook envelope has status (.*) \(([^()]*)\)$');
  IF m IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'envelopeNotSuccess', 'args', jsonb_build_object('status', m[1],
      'codeError', CASE WHEN m[2] = 'no code' THEN NULL ELSE m[2] END));
  END IF;
  m := regexp_match(d, '^webhook operation does not match the expected shape: (.*)$');
  IF m IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'operationInvalid', 'args', jsonb_build_object('detail', m[1]));
  END IF;
  m := regexp_match(d,
    '^(already mirrored|older than the mirrored state|would change a final status)( \(webhook traceID (.*)\))?$');
  IF m IS NOT NULL THEN
    RETURN jsonb_build_object('code', pg_temp.paydesk_applied_note(m[1]),
      'args', jsonb_build_object('traceID', m[3]));
  END IF;
  m := regexp_match(d, '^read-back failed (\d+) times: (.*)$');
  IF m IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'readBackFailed',
      'args', jsonb_build_object('attempts', m[1]::int, 'error', m[2]));
  END IF;
  m := regexp_match(d, '^the platform does not know operation (\S+)$');
  IF m IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'unknownToPlatform', 'args', jsonb_build_object('operationId', m[1]));
  END IF;
  m := regexp_match(d, '^webhook said (\S+), read-back says (\S+) \(applied the read-back\)$');
  IF m IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'readBackStatusDiffers',
      'args', jsonb_build_object('said', m[1], 'read', m[2]));
  END IF;
  m := regexp_match(d, '^webhook differs from the read-back in (.+) \(applied the read-back\)$');
  IF m IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'readBackFieldsDiffer',
      'args', jsonb_build_object('fields', to_jsonb(string_to_array(m[1], ', '))));
  END IF;
  m := regexp_match(d, '^webhook''s dateUpdated (\S+) is later than its arrival \(applied the read-back\)$');
  IF m IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'readBackDateAhead', 'args', jsonb_build_object('at', m[1]));
  END IF;
  m := regexp_match(d,
    '^read back: (.+); (already mirrored|older than the mirrored state|would change a final status)( \(webhook traceID (.*)\))?$');
  IF m IS NOT NULL AND pg_temp.paydesk_unconfirmed(m[1]) IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'readBack', 'args', pg_temp.paydesk_unconfirmed(m[1])
      || jsonb_build_object('then', pg_temp.paydesk_applied_note(m[2]), 'traceID', m[4]));
  END IF;
  m := regexp_match(d, '^read back: (.+)$');
  IF m IS NOT NULL AND pg_temp.paydesk_unconfirmed(m[1]) IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'readBack', 'args', pg_temp.paydesk_unconfirmed(m[1])
      || jsonb_build_object('then', NULL, 'traceID', NULL));
  END IF;
  m := regexp_match(d,
    '^processing again on request \(was (applied|duplicate|stale|disagreement|failed)\)$');
  IF m IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'reprocessRequested', 'args', jsonb_build_object('was', m[1]));
  END IF;
  RETURN NULL;
END
$$;

-- A refused or malformed body's sentence may end with what was kept of it.
CREATE FUNCTION pg_temp.paydesk_webhook_note_cut(d text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  m text[];
  note jsonb;
BEGIN
  m := regexp_match(d, '^(.*); only its first (\d+) bytes kept \(of (\d+|\d+ declared|at least \d+)\)$');
  IF m IS NULL THEN
    RETURN pg_temp.paydesk_webhook_note(d);
  END IF;
  note := pg_temp.paydesk_webhook_note(m[1]);
  IF note IS NULL THEN
    RETURN NULL;
  END IF;
  RETURN jsonb_set(note, '{args,cut}', jsonb_build_object(
    'kept', m[2]::int,
    'total', substring(m[3] from '(\d+)')::bigint,
    'totalKind', CASE WHEN m[3] LIKE '%declared' THEN 'declared'
                      WHEN m[3] LIKE 'at least%' THEN 'atLeast' ELSE 'exact' END));
END
$$;

UPDATE "WebhookDelivery" w
SET "outcomeCode" = n.note ->> 'code', "outcomeArgs" = n.note -> 'args', "outcomeDetail" = NULL
FROM (
  SELECT id, pg_temp.paydesk_webhook_note_cut("outcomeDetail") AS note
  FROM "WebhookDelivery"
  WHERE "outcomeDetail" IS NOT NULL AND "outcomeCode" IS NULL
) n
WHERE w.id = n.id AND n.note IS NOT NULL;

UPDATE "ReconciliationRun" SET "stopCode" = 'endOfList', "stopArgs" = '{}'::jsonb, "stopReason" = NULL
WHERE "stopReason" = 'reached the end of the list';

UPDATE "ReconciliationRun"
SET "stopCode" = 'passedLowerBound',
    "stopArgs" = jsonb_build_object('at', substring("stopReason" from '^passed (\S+) ')),
    "stopReason" = NULL
WHERE "stopReason" ~ '^passed \S+ \(last reconciled point and oldest open operation, with overlap\)$';

UPDATE "ReconciliationRun" SET "errorCode" = 'interrupted', error = NULL WHERE error = 'interrupted';

-- Any other error of a failed run was the caught exception's message: kept as the data it is.
UPDATE "ReconciliationRun" SET "errorCode" = 'failed' WHERE status = 'failed' AND error IS NOT NULL AND "errorCode" IS NULL;

DROP FUNCTION pg_temp.paydesk_webhook_note_cut(text);
DROP FUNCTION pg_temp.paydesk_webhook_note(text);
DROP FUNCTION pg_temp.paydesk_unconfirmed(text);
DROP FUNCTION pg_temp.paydesk_applied_note(text);
