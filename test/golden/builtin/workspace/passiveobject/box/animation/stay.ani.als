#PVF_File
# Example animation layer script written from pvf-tag-facts §10 (stay.ani.als is loaded with stay.ani).

[use animation]
	`passiveobject/box/animation/dust.ani`	`dust`
	`passiveobject/box/animation/break.ani`	`crack`

[add]
	0	1	`dust`
	1	2	`crack`

[remove]
	1	0	`dust`

[create draw only object]
	0	`dust`	0	0	0

[none effect add]
	1	-1	`crack`
