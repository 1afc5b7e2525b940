import java.math.BigDecimal;
import java.sql.*;
import java.time.*;
import java.util.*;

/**
 * Every column type through pgjdbc (issue #18): each value bound with its setter, read back
 * with its getter and equal, NULLs too; once with text results (prepareThreshold=0: unnamed
 * statements) and once with binary ones (prepareThreshold=-1: named, binary transfer).
 * Usage: java -cp postgresql.jar PgTypesRoundtrip.java PORT. Prints "OK jdbc types".
 */
public class PgTypesRoundtrip {
    static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }

    static final String COLS = "b, sh, i, l, f, d, v, s, c, bin, dt, ts, tsn, tz, u, ip, l256, arr, dec";
    static final byte[] BYTES = {0, 1, (byte) 0xfe, (byte) 0xff};
    static final Timestamp TS = Timestamp.valueOf("2024-01-02 03:04:05.123456");
    static final Timestamp TSN = Timestamp.valueOf("2024-01-02 03:04:05.654321");
    static final Timestamp DT = Timestamp.valueOf("2024-01-02 00:00:00");
    static final OffsetDateTime TZ = OffsetDateTime.of(2024, 1, 2, 5, 4, 5, 1_000_000, ZoneOffset.ofHours(2));
    static final UUID U = UUID.fromString("0123e4a5-6789-4bcd-8ef0-123456789abc");
    static final String L256 = "0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    static void insert(Connection c, int id, boolean nulls) throws SQLException {
        String marks = String.join(", ", Collections.nCopies(20, "?"));
        try (PreparedStatement p = c.prepareStatement("insert into rtj (id, " + COLS + ") values (" + marks + ")")) {
            p.setInt(1, id);
            if (nulls) {
                int[] types = {Types.BOOLEAN, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.REAL, Types.DOUBLE,
                    Types.VARCHAR, Types.VARCHAR, Types.CHAR, Types.BINARY, Types.TIMESTAMP, Types.TIMESTAMP,
                    Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE, Types.OTHER, Types.VARCHAR, Types.VARCHAR,
                    Types.ARRAY, Types.NUMERIC};
                for (int k = 0; k < types.length; k++) p.setNull(k + 2, types[k]);
            } else {
                p.setBoolean(2, true);
                p.setShort(3, (short) 12);
                p.setInt(4, -123456);
                p.setLong(5, 9007199254740993L);
                p.setFloat(6, 1.5f);
                p.setDouble(7, -2.25);
                p.setString(8, "héllo, wörld");
                p.setString(9, "sym1");
                p.setString(10, "x");
                p.setBytes(11, BYTES);
                p.setTimestamp(12, DT);
                p.setTimestamp(13, TS);
                p.setTimestamp(14, TSN);
                p.setObject(15, TZ);
                p.setObject(16, U);
                p.setString(17, "10.1.2.3");
                p.setString(18, L256);
                p.setArray(19, c.createArrayOf("float8", new Double[] {1.5, null, -3.0}));
                p.setBigDecimal(20, new BigDecimal("12.345"));
            }
            check(p.executeUpdate() == 1, "insert " + id);
        }
    }

    static void read(Connection c, int id, boolean nulls, String mode) throws SQLException {
        String sql = "select " + COLS.replace("tz,", "tz::timestamptz tz,") + " from rtj where id = ?";
        // Twice: pgjdbc switches to a named statement (and binary results) from its threshold on.
        for (int round = 0; round < 2; round++) {
            try (PreparedStatement p = c.prepareStatement(sql)) {
                p.setInt(1, id);
                try (ResultSet r = p.executeQuery()) {
                    check(r.next(), mode + ": row " + id);
                    String at = mode + " id " + id + ": ";
                    if (nulls) {
                        // BOOLEAN and SHORT have no NULL in QuestDB: stored as false / 0.
                        check(!r.getBoolean("b"), at + "b");
                        check(r.getShort("sh") == 0, at + "sh");
                        for (String col : COLS.split(", ")) {
                            if (col.equals("b") || col.equals("sh")) continue;
                            r.getObject(col);
                            check(r.wasNull(), at + col + " is not NULL");
                        }
                        continue;
                    }
                    check(r.getBoolean("b"), at + "b");
                    check(r.getShort("sh") == 12, at + "sh");
                    check(r.getInt("i") == -123456, at + "i");
                    check(r.getLong("l") == 9007199254740993L, at + "l");
                    check(r.getFloat("f") == 1.5f, at + "f");
                    check(r.getDouble("d") == -2.25, at + "d");
                    check(r.getString("v").equals("héllo, wörld"), at + "v " + r.getString("v"));
                    check(r.getString("s").equals("sym1"), at + "s");
                    check(r.getString("c").equals("x"), at + "c " + r.getString("c"));
                    check(Arrays.equals(r.getBytes("bin"), BYTES), at + "bin " + Arrays.toString(r.getBytes("bin")));
                    check(r.getTimestamp("dt").equals(DT), at + "dt " + r.getTimestamp("dt"));
                    check(r.getTimestamp("ts").equals(TS), at + "ts " + r.getTimestamp("ts"));
                    check(r.getTimestamp("tsn").equals(TSN), at + "tsn " + r.getTimestamp("tsn"));
                    OffsetDateTime tz = r.getObject("tz", OffsetDateTime.class);
                    check(tz.toInstant().equals(TZ.toInstant()), at + "tz " + tz);
                    check(r.getObject("u").equals(U), at + "u " + r.getObject("u"));
                    check(r.getString("ip").equals("10.1.2.3"), at + "ip");
                    check(r.getString("l256").equals(L256), at + "l256");
                    Double[] arr = (Double[]) r.getArray("arr").getArray();
                    check(Arrays.equals(arr, new Double[] {1.5, null, -3.0}), at + "arr " + Arrays.toString(arr));
                    check(r.getBigDecimal("dec").equals(new BigDecimal("12.345")), at + "dec " + r.getBigDecimal("dec"));
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String base = "jdbc:postgresql://127.0.0.1:" + args[0] + "/qdb?sslmode=disable";
        Properties props = new Properties();
        props.setProperty("user", "admin");
        props.setProperty("password", "quest");
        try (Connection c = DriverManager.getConnection(base, props); Statement s = c.createStatement()) {
            s.execute("drop table if exists rtj");
            s.execute("create table rtj (id int, b boolean, sh short, i int, l long, f float, d double, v varchar, "
                + "s symbol, c char, bin binary, dt date, ts timestamp, tsn timestamp_ns, tz timestamp, u uuid, "
                + "ip ipv4, l256 long256, arr double[], dec decimal(18,3))");
        }
        String[][] modes = {{"text", "0"}, {"binary", "-1"}};
        int id = 0;
        for (String[] mode : modes) {
            try (Connection c = DriverManager.getConnection(base + "&prepareThreshold=" + mode[1], props)) {
                insert(c, ++id, false);
                read(c, id, false, mode[0]);
                insert(c, ++id, true);
                read(c, id, true, mode[0]);
            }
        }
        System.out.println("OK jdbc types");
    }
}
