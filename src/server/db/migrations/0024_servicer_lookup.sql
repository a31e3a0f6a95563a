-- The public servicer lookup and its address autocomplete.
-- registry_address_key(): the one definition of "the same property address" the lookup compares
-- (USPS Publication 28 street suffixes and directionals abbreviated, unit designators Apt, Unit,
-- Ste, # ... made one '#', case, accents and punctuation dropped, ZIP+4 cut to the ZIP); it is
-- IMMUTABLE so loans.property_address_key is a stored generated column: computed in the one pass
-- that adds it (no row-by-row backfill) and by PostgreSQL on every later write. The city is left
-- out on purpose: one ZIP has many accepted city names. The lookup's limits, its spent
-- proof-of-work challenges, its record (never a name), the servers' shared secret, and the
-- autocomplete's address reference table (searched by prefix, never the loans).
CREATE FUNCTION registry_address_key(street1 text, street2 text, state text, zip text) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  -- USPS Publication 28 (appendix C1 suffixes, directionals, C2 unit designators made one '#').
  abbreviations constant jsonb := '{"ALLEY":"ALY","ANNEX":"ANX","ARCADE":"ARC","AVENUE":"AVE","AV":"AVE","AVEN":"AVE","AVENU":"AVE","AVN":"AVE","BAYOU":"BYU","BEACH":"BCH","BEND":"BND","BLUFF":"BLF","BOULEVARD":"BLVD","BOUL":"BLVD","BOULV":"BLVD","BRANCH":"BR","BRIDGE":"BRG","BROOK":"BRK","BYPASS":"BYP","CAMP":"CP","CANYON":"CYN","CAPE":"CPE","CAUSEWAY":"CSWY","CENTER":"CTR","CENTRE":"CTR","CENT":"CTR","CIRCLE":"CIR","CIRC":"CIR","CIRCL":"CIR","CLIFF":"CLF","CLUB":"CLB","COMMON":"CMN","CORNER":"COR","COURSE":"CRSE","COURT":"CT","CRT":"CT","COVE":"CV","CREEK":"CRK","CRESCENT":"CRES","CROSSING":"XING","CRSSNG":"XING","DALE":"DL","DAM":"DM","DIVIDE":"DV","DRIVE":"DR","DRIV":"DR","DRV":"DR","ESTATE":"EST","ESTATES":"ESTS","EXPRESSWAY":"EXPY","EXTENSION":"EXT","FALLS":"FLS","FERRY":"FRY","FIELD":"FLD","FIELDS":"FLDS","FLAT":"FLT","FORD":"FRD","FOREST":"FRST","FORGE":"FRG","FORK":"FRK","FORT":"FT","FREEWAY":"FWY","GARDEN":"GDN","GARDENS":"GDNS","GATEWAY":"GTWY","GLEN":"GLN","GREEN":"GRN","GROVE":"GRV","HARBOR":"HBR","HAVEN":"HVN","HEIGHTS":"HTS","HIGHWAY":"HWY","HIWAY":"HWY","HILL":"HL","HILLS":"HLS","HOLLOW":"HOLW","INLET":"INLT","ISLAND":"IS","JUNCTION":"JCT","KEY":"KY","KNOLL":"KNL","LAKE":"LK","LAKES":"LKS","LANDING":"LNDG","LANE":"LN","LIGHT":"LGT","LOCK":"LCK","LODGE":"LDG","MANOR":"MNR","MEADOW":"MDW","MEADOWS":"MDWS","MILL":"ML","MISSION":"MSN","MOTORWAY":"MTWY","MOUNT":"MT","MOUNTAIN":"MTN","OVERPASS":"OPAS","PARKWAY":"PKWY","PKY":"PKWY","PASSAGE":"PSGE","PINE":"PNE","PINES":"PNES","PLACE":"PL","PLAIN":"PLN","PLAINS":"PLNS","PLAZA":"PLZ","POINT":"PT","PORT":"PRT","PRAIRIE":"PR","RANCH":"RNCH","RIDGE":"RDG","RIVER":"RIV","ROAD":"RD","ROUTE":"RTE","SHORE":"SHR","SPRING":"SPG","SPRINGS":"SPGS","SQUARE":"SQ","STATION":"STA","STREET":"ST","STR":"ST","STRT":"ST","STREAM":"STRM","SUMMIT":"SMT","TERRACE":"TER","TRACE":"TRCE","TRAIL":"TRL","TRAILER":"TRLR","TUNNEL":"TUNL","TURNPIKE":"TPKE","VALLEY":"VLY","VIEW":"VW","VILLAGE":"VLG","VILLE":"VL","VISTA":"VIS","WELL":"WL","WELLS":"WLS","NORTH":"N","SOUTH":"S","EAST":"E","WEST":"W","NORTHEAST":"NE","NORTHWEST":"NW","SOUTHEAST":"SE","SOUTHWEST":"SW","FLOOR":"FL","BUILDING":"BLDG","APARTMENT":"#","APT":"#","UNIT":"#","SUITE":"#","STE":"#","ROOM":"#","RM":"#"}'::jsonb;
  words text[];
  word text;
  key text := '';
BEGIN
  words := regexp_split_to_array(btrim(regexp_replace(regexp_replace(regexp_replace(
             translate(upper(coalesce(street1, '') || ' ' || coalesce(street2, '')),
                       'ÀÁÂÃÄÅÈÉÊËÌÍÎÏÒÓÔÕÖÙÚÛÜÑÇÝ', 'AAAAAAEEEEIIIIOOOOOUUUUNCY'),
             '[.'']', '', 'g'), '[^A-Z0-9#]+', ' ', 'g'), '#', ' # ', 'g')), ' +');
  FOREACH word IN ARRAY words LOOP
    word := coalesce(abbreviations ->> word, word);
    -- 'Apt #4' is '# 4' like 'Apt 4' and '#4'.
    CONTINUE WHEN word = '#' AND key LIKE '%#';
    key := CASE WHEN key = '' THEN word ELSE key || ' ' || word END;
  END LOOP;
  RETURN key || '|' || upper(btrim(coalesce(state, ''))) || '|' || left(regexp_replace(coalesce(zip, ''), '[^0-9]', '', 'g'), 5);
END
$$;
--> statement-breakpoint
CREATE TABLE "address_references" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "address_references_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"street1" text NOT NULL,
	"street2" text,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"search_key" text GENERATED ALWAYS AS (lower(regexp_replace(street1 || coalesce(' ' || street2, '') || ' ' || city || ' ' || state || ' ' || zip, '[\s,]+', ' ', 'g'))) STORED
);
--> statement-breakpoint
CREATE TABLE "lookup_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lookup_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "servicer_lookups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "servicer_lookups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"client_address" text NOT NULL,
	"street1" text NOT NULL,
	"street2" text,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"found" boolean NOT NULL,
	"refusal" text
);
--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "property_address_key" text GENERATED ALWAYS AS (registry_address_key(property_street1, property_street2, property_state, property_zip)) STORED;--> statement-breakpoint
CREATE INDEX "address_references_search_idx" ON "address_references" USING btree ("search_key" text_pattern_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "address_references_address_key" ON "address_references" USING btree ("street1",coalesce("street2", ''),"city","state","zip");--> statement-breakpoint
CREATE INDEX "lookup_challenges_expires_idx" ON "lookup_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "servicer_lookups_occurred_idx" ON "servicer_lookups" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "loans_address_key_idx" ON "loans" USING btree ("property_address_key") WHERE "loans"."status" = 'Active' AND NOT "loans"."deactivated";