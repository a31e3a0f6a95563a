-- One holder key for SPEC's default role filter: '<participant id>:DEFAULT' on every loan where the
-- organization holds one of OWNER, SERVICER, CONTROLLER, SUB_SERVICER, SECURED_PARTY. The asset
-- search with the default filter then intersects the text with one posting list instead of five.
CREATE OR REPLACE FUNCTION loan_role_keys(participant_id uuid, roles smallint) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ARRAY(
  SELECT participant_id::text || ':' || role
  FROM unnest(ARRAY['OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY', 'ORIGINATOR']) AS role
  WHERE (roles & loan_role_bit(role)) <> 0
) || CASE WHEN (roles & 31) <> 0 THEN ARRAY[participant_id::text || ':DEFAULT'] ELSE '{}'::text[] END;
--> statement-breakpoint
SELECT loan_list_rebuild();
