import java.sql.*;
import java.util.*;

/**
 * pgjdbc transactions (spec/protocols.md §12.10): setAutoCommit(false) (pgjdbc sends BEGIN
 * inside its first batch), a savepoint, rollback(savepoint), commit, and a rollback of the whole
 * transaction; a second connection checks what other sessions see.
 * Usage: java -cp postgresql.jar PgJdbcTransactions.java PORT. Prints "OK jdbc transactions".
 */
public class PgJdbcTransactions {
    static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }

    static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    public static void main(String[] args) throws Exception {
        String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/qdb?sslmode=disable";
        Properties props = new Properties();
        props.setProperty("user", "admin");
        props.setProperty("password", "quest");
        try (Connection c = DriverManager.getConnection(url, props);
             Connection other = DriverManager.getConnection(url, props)) {
            try (Statement s = c.createStatement()) {
                s.execute("create table jdbc_tx (ts timestamp, x long) timestamp(ts) partition by day");
            }
            c.setAutoCommit(false);
            try (PreparedStatement p = c.prepareStatement("insert into jdbc_tx values (?, ?)")) {
                p.setTimestamp(1, Timestamp.valueOf("2024-01-01 00:00:00"));
                p.setLong(2, 1);
                p.executeUpdate();
                Savepoint sp = c.setSavepoint("sp1");
                p.setTimestamp(1, Timestamp.valueOf("2024-01-01 00:00:01"));
                p.setLong(2, 2);
                p.executeUpdate();
                check(count(other, "select count() from jdbc_tx") == 0, "rows visible before commit");
                c.rollback(sp);
                p.setTimestamp(1, Timestamp.valueOf("2024-01-01 00:00:02"));
                p.setLong(2, 3);
                p.executeUpdate();
                c.commit();
                check(count(other, "select count() from jdbc_tx") == 2, "two rows after commit");
                check(count(other, "select sum(x) from jdbc_tx") == 4, "rows 1 and 3 committed");

                p.setTimestamp(1, Timestamp.valueOf("2024-01-01 00:00:03"));
                p.setLong(2, 10);
                p.executeUpdate();
                c.rollback();
                check(count(other, "select count() from jdbc_tx") == 2, "rollback discarded the row");

                try (Statement s = c.createStatement()) {
                    s.executeQuery("select * from no_such_table");
                    check(false, "bad query succeeded");
                } catch (SQLException e) {
                    check(e.getMessage().contains("no_such_table"), e.getMessage());
                }
                try (Statement s = c.createStatement()) {
                    s.executeQuery("select 1");
                    check(false, "a statement ran in a failed transaction");
                } catch (SQLException e) {
                    check("25P02".equals(e.getSQLState()), "SQLSTATE " + e.getSQLState());
                }
                c.rollback();
                check(count(c, "select count() from jdbc_tx") == 2, "usable after rollback");
                c.commit();
            }
        }
        System.out.println("OK jdbc transactions");
    }
}
