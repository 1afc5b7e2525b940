import java.sql.*;
import java.util.*;

/**
 * pgjdbc DatabaseMetaData against the server (issue 10 evidence): the calls GUI tools make
 * when they open a connection and browse a table (getSchemas, getTables, getColumns,
 * getPrimaryKeys, getIndexInfo, getTypeInfo, getFunctions) all answer from pg_catalog
 * without errors and name the right schema, table and columns (and no index: a declared SYMBOL INDEX is not built).
 * Usage: java -cp postgresql.jar GuiJdbcMetaClient.java PORT. Prints "OK jdbc meta".
 */
public class GuiJdbcMetaClient {
    static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }

    /** Values of one column of a result set, in order. */
    static List<String> column(ResultSet rs, String name) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) out.add(rs.getString(name));
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/qdb?sslmode=disable";
        Properties props = new Properties();
        props.setProperty("user", "admin");
        props.setProperty("password", "quest");
        try (Connection c = DriverManager.getConnection(url, props)) {
            try (Statement s = c.createStatement()) {
                s.execute("drop table if exists gui_t");
                s.execute("create table gui_t (ts timestamp, sym symbol index, x int, price double, note varchar)"
                    + " timestamp(ts) partition by day");
            }
            DatabaseMetaData md = c.getMetaData();
            List<String> schemas = column(md.getSchemas(), "TABLE_SCHEM");
            check(schemas.contains("public"), "schemas " + schemas);
            check(schemas.contains("pg_catalog") && schemas.contains("information_schema"), "schemas " + schemas);

            List<String> tables = column(md.getTables(null, "public", "%", new String[] {"TABLE"}), "TABLE_NAME");
            check(tables.contains("gui_t"), "tables " + tables);
            try (ResultSet rs = md.getTables(null, null, "gui_t", null)) {
                check(rs.next(), "getTables gui_t");
                check("public".equals(rs.getString("TABLE_SCHEM")), "schema " + rs.getString("TABLE_SCHEM"));
                check("TABLE".equals(rs.getString("TABLE_TYPE")), "type " + rs.getString("TABLE_TYPE"));
            }

            List<String> cols = new ArrayList<>();
            try (ResultSet rs = md.getColumns(null, "public", "gui_t", "%")) {
                while (rs.next()) cols.add(rs.getString("COLUMN_NAME") + ":" + rs.getString("TYPE_NAME") + ":" + rs.getInt("ORDINAL_POSITION"));
            }
            check(cols.equals(List.of("ts:timestamp:1", "sym:varchar:2", "x:int4:3", "price:float8:4", "note:varchar:5")), "columns " + cols);

            List<String> pks = column(md.getPrimaryKeys(null, "public", "gui_t"), "COLUMN_NAME");
            check(pks.isEmpty(), "primary keys " + pks);
            List<String> indexes = new ArrayList<>();
            try (ResultSet rs = md.getIndexInfo(null, "public", "gui_t", false, true)) {
                while (rs.next()) {
                    indexes.add(rs.getString("INDEX_NAME") + ":" + rs.getString("COLUMN_NAME") + ":" + rs.getBoolean("NON_UNIQUE")
                        + ":" + rs.getShort("ORDINAL_POSITION") + ":" + rs.getShort("TYPE"));
                }
            }
            // A declared SYMBOL INDEX is not built, so getIndexInfo lists no index (its query still runs).
            check(indexes.isEmpty(), "indexes " + indexes);
            check(column(md.getIndexInfo(null, "public", "gui_t", true, true), "INDEX_NAME").isEmpty(), "unique indexes");

            List<String> types = column(md.getTypeInfo(), "TYPE_NAME");
            for (String t : List.of("bool", "int4", "int8", "float8", "varchar", "timestamp", "uuid")) {
                check(types.contains(t), "type info lacks " + t + ": " + types);
            }
            List<String> fns = column(md.getFunctions(null, "pg_catalog", "%"), "FUNCTION_NAME");
            check(fns.contains("now") && fns.contains("format_type"), "functions " + fns.size());
            column(md.getProcedures(null, null, "%"), "PROCEDURE_NAME");
            column(md.getTableTypes(), "TABLE_TYPE");
            column(md.getCatalogs(), "TABLE_CAT");
            check(md.getDatabaseProductVersion() != null, "product version");
            // What DBeaver-style browsers ask next about a table: keys, privileges, row identifiers.
            column(md.getImportedKeys(null, "public", "gui_t"), "FKCOLUMN_NAME");
            column(md.getExportedKeys(null, "public", "gui_t"), "FKCOLUMN_NAME");
            column(md.getCrossReference(null, "public", "gui_t", null, "public", "gui_t"), "FKCOLUMN_NAME");
            column(md.getTablePrivileges(null, "public", "gui_t"), "PRIVILEGE");
            column(md.getColumnPrivileges(null, "public", "gui_t", "%"), "PRIVILEGE");
            column(md.getBestRowIdentifier(null, "public", "gui_t", DatabaseMetaData.bestRowSession, true), "COLUMN_NAME");
            column(md.getVersionColumns(null, "public", "gui_t"), "COLUMN_NAME");
            column(md.getUDTs(null, null, "%", null), "TYPE_NAME");
            column(md.getFunctionColumns(null, "pg_catalog", "now", "%"), "COLUMN_NAME");
            column(md.getProcedureColumns(null, "pg_catalog", "now", "%"), "COLUMN_NAME");
            column(md.getClientInfoProperties(), "NAME");
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select count(*) from public.gui_t")) {
                check(rs.next() && rs.getLong(1) == 0, "public.gui_t");
            }
        }
        System.out.println("OK jdbc meta");
    }
}
