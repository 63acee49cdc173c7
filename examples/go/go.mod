module example.com/zero-sandbox-recipe

go 1.19
