\set id random(1, 1000)
SELECT x, x * 2 AS y FROM long_sequence(10) WHERE x = :id % 10 + 1;
SELECT 1;
