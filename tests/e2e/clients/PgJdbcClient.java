import java.sql.*;
import java.time.LocalDateTime;
import java.util.*;

/**
 * pgjdbc against the server (issue 4 evidence): PreparedStatement with parameters of several
 * types (reused past prepareThreshold, so named server statements and binary transfer kick
 * in), timestamps round-tripping exactly, batch inserts, DatabaseMetaData.getTables and
 * getColumns, an error with its SQLSTATE, and setFetchSize inside a transaction (portal
 * suspension). Usage: java -cp postgresql.jar PgJdbcClient.java PORT. Prints "OK jdbc".
 */
public class PgJdbcClient {
    static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }

    public static void main(String[] args) throws Exception {
        String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/qdb?sslmode=disable";
        Properties props = new Properties();
        props.setProperty("user", "admin");
        props.setProperty("password", "quest");
        props.setProperty("prepareThreshold", "2");
        try (Connection c = DriverManager.getConnection(url, props)) {
            try (Statement s = c.createStatement()) {
                s.execute("create table jdbc_t (ts timestamp, sym symbol, price double, qty long, n int, ok boolean)"
                    + " timestamp(ts) partition by day");
            }
            LocalDateTime ts = LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678901000);
            try (PreparedStatement p = c.prepareStatement("insert into jdbc_t values (?, ?, ?, ?, ?, ?)")) {
                for (int i = 0; i < 10; i++) {
                    p.setTimestamp(1, Timestamp.valueOf(ts.plusSeconds(i)));
                    p.setString(2, "S" + (i % 2));
                    p.setDouble(3, i * 1.5);
                    p.setLong(4, 1_000_000_000_000L + i);
                    p.setInt(5, i);
                    p.setBoolean(6, i % 2 == 0);
                    check(p.executeUpdate() == 1, "insert count");
                }
                for (int i = 10; i < 20; i++) {
                    p.setTimestamp(1, Timestamp.valueOf(ts.plusSeconds(i)));
                    p.setString(2, "B");
                    p.setDouble(3, i);
                    p.setLong(4, i);
                    p.setInt(5, i);
                    p.setBoolean(6, true);
                    p.addBatch();
                }
                p.executeBatch();
            }
            try (PreparedStatement q = c.prepareStatement("select ts, sym, price, qty, n, ok from jdbc_t where n = ?")) {
                for (int round = 0; round < 6; round++) { // past prepareThreshold: named statement, binary
                    q.setInt(1, 3);
                    try (ResultSet r = q.executeQuery()) {
                        check(r.next(), "row");
                        check(r.getTimestamp(1).toLocalDateTime().equals(ts.plusSeconds(3)), "ts " + r.getTimestamp(1));
                        check(r.getString(2).equals("S1"), "sym");
                        check(r.getDouble(3) == 4.5, "price " + r.getDouble(3));
                        check(r.getLong(4) == 1_000_000_000_003L, "qty");
                        check(r.getInt(5) == 3, "n");
                        check(!r.getBoolean(6), "ok");
                        check(!r.next(), "one row");
                    }
                }
            }
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("select count() from jdbc_t")) {
                check(r.next() && r.getLong(1) == 20, "count");
            }
            DatabaseMetaData md = c.getMetaData();
            boolean found = false;
            try (ResultSet r = md.getTables(null, null, "jdbc_t", new String[] {"TABLE"})) {
                while (r.next()) found |= r.getString("TABLE_NAME").equals("jdbc_t");
            }
            check(found, "getTables finds jdbc_t");
            List<String> columns = new ArrayList<>();
            try (ResultSet r = md.getColumns(null, null, "jdbc_t", null)) {
                while (r.next()) columns.add(r.getString("COLUMN_NAME") + ":" + r.getString("TYPE_NAME"));
            }
            check(columns.equals(List.of("ts:timestamp", "sym:varchar", "price:float8", "qty:int8", "n:int4", "ok:bool")),
                "getColumns " + columns);
            try (Statement s = c.createStatement()) {
                s.executeQuery("select * from nope");
                check(false, "expected an error");
            } catch (SQLException e) {
                check("42P01".equals(e.getSQLState()), "sqlstate " + e.getSQLState());
            }
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.setFetchSize(100);
                int rows = 0;
                try (ResultSet r = s.executeQuery("select x from long_sequence(1000)")) {
                    while (r.next()) rows++;
                }
                check(rows == 1000, "fetch size rows " + rows);
            }
            c.commit();
        }
        System.out.println("OK jdbc");
    }
}
