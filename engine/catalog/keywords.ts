/**
 * QuestDB's keyword list as functions: `keywords()` (one STRING column `keyword`) and
 * PostgreSQL's `pg_get_keywords()` (word, catcode, barelabel, catdesc, baredesc; QuestDB fills
 * only the word and `barelabel` false). The list is QuestDB's catalogue Constants.KEYWORDS, in
 * its order (KeywordsFunctionFactoryTest, PgGetKeywordsFunctionFactoryTest).
 */
import { cols } from "./pg_catalog_define.ts";
import { registerMetaTable } from "./meta_tables.ts";

export const QUESTDB_KEYWORDS: readonly string[] = `add all alter and as asc asof backup between by cache
  capacity case cast column columns copy create cross database default delete desc distinct drop else
  end except exists fill foreign from grant group header if in index inner insert intersect into
  isolation join key latest left level limit lock lt nan natural nocache none not null on only or
  order outer over partition primary references rename repair right sample select show splice system
  table tables then to transaction truncate type union unlock update values when where with writer
  window`.split(/\s+/);

export function registerKeywordFunctions(): void {
  registerMetaTable("keywords", cols("keyword"), () => QUESTDB_KEYWORDS.map((k) => [k]));
  const pgColumns = cols("word catcode:CHAR barelabel:BOOLEAN catdesc baredesc");
  const pgRows = () => QUESTDB_KEYWORDS.map((k) => [k, null, false, null, null]);
  registerMetaTable("pg_get_keywords", pgColumns, pgRows);
  registerMetaTable("pg_catalog.pg_get_keywords", pgColumns, pgRows);
}
