-- family: uuid_functions
-- source: Trino 476 docs, functions/uuid.md (https://trino.io/docs/476/functions/uuid.html) and language/types.md (UUID); uuid() itself is random and left out

-- source: language/types.md, UUID literals
SELECT UUID '12151fd2-7586-11e9-8f9e-2a86e4085a59';
SELECT UUID '12151FD2-7586-11E9-8F9E-2A86E4085A59';
SELECT UUID '00000000-0000-0000-0000-000000000000';
SELECT UUID 'ffffffff-ffff-ffff-ffff-ffffffffffff';
SELECT UUID '12151fd2758611e98f9e2a86e4085a59';
SELECT UUID 'not-a-uuid';
SELECT UUID '12151fd2-7586-11e9-8f9e-2a86e4085a5';
SELECT UUID '';
SELECT typeof(UUID '12151fd2-7586-11e9-8f9e-2a86e4085a59');

-- source: language/types.md, UUID casts
SELECT CAST('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AS uuid);
SELECT CAST('A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11' AS uuid);
SELECT CAST('{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}' AS uuid);
SELECT CAST(' a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AS uuid);
SELECT CAST('xyz' AS uuid);
SELECT try_cast('xyz' AS uuid);
SELECT CAST(NULL AS uuid);
SELECT CAST(UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AS varchar);
SELECT CAST(UUID 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11' AS varchar);
SELECT CAST(UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AS varbinary);
SELECT CAST(X'a0eebc999c0b4ef8bb6d6bb9bd380a11' AS uuid);
SELECT CAST(X'0102' AS uuid);
SELECT to_hex(CAST(UUID '00112233-4455-6677-8899-aabbccddeeff' AS varbinary));
SELECT CAST(CAST('00112233-4455-6677-8899-aabbccddeeff' AS uuid) AS varchar);
SELECT length(CAST(UUID '00112233-4455-6677-8899-aabbccddeeff' AS varchar));
SELECT CAST(1 AS uuid);
SELECT CAST(UUID '00112233-4455-6677-8899-aabbccddeeff' AS bigint);
SELECT CAST(UUID '00112233-4455-6677-8899-aabbccddeeff' AS varchar(10));

-- source: language/types.md, UUID comparison and ordering
SELECT UUID '12151fd2-7586-11e9-8f9e-2a86e4085a59' = UUID '12151FD2-7586-11E9-8F9E-2A86E4085A59';
SELECT UUID '00000000-0000-0000-0000-000000000001' < UUID '00000000-0000-0000-0000-000000000002';
SELECT UUID '10000000-0000-0000-0000-000000000000' < UUID '0fffffff-ffff-ffff-ffff-ffffffffffff';
SELECT UUID '00000000-0000-0000-8000-000000000000' > UUID '00000000-0000-0000-7fff-ffffffffffff';
SELECT UUID '00000000-0000-0001-0000-000000000000' > UUID '00000000-0000-0000-ffff-ffffffffffff';
SELECT UUID 'ffffffff-ffff-ffff-ffff-ffffffffffff' > UUID '00000000-0000-0000-0000-000000000000';
SELECT UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' IN (UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
SELECT UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' IS DISTINCT FROM NULL;
SELECT CAST(u AS varchar) FROM (VALUES UUID 'ffffffff-0000-0000-0000-000000000000', UUID '7fffffff-ffff-ffff-ffff-ffffffffffff', UUID '80000000-0000-0000-0000-000000000000', UUID '00000000-0000-0000-0000-000000000001', UUID '00000000-0000-0000-ffff-000000000000') t(u) ORDER BY u;
SELECT max(u), min(u) FROM (VALUES UUID '7fffffff-ffff-ffff-ffff-ffffffffffff', UUID '80000000-0000-0000-0000-000000000000', UUID '00000000-0000-0000-0000-000000000001') t(u);
SELECT count(DISTINCT u) FROM (VALUES UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', UUID 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11') t(u);
SELECT CAST(lpad(CAST(nationkey AS varchar), 8, '0') || '-0000-0000-0000-000000000000' AS uuid) FROM tpch.tiny.nation WHERE nationkey < 3 ORDER BY nationkey;
SELECT UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
