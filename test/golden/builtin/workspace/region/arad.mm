#PVF_File
# Example minimap written from the official minimap sample layout (.mm); values are illustrative.

[world]
	[index]
		1
	[level]
		1	20
	[point]
		10	20
[/world]

[town]
	[index]
		1
	[area]
		[index]
			0
		[type]
			4
		[real rect]
			0	0	800	300
		[project rect]
			5	5	40	20
		[npc]
			1	12	8
	[/area]
[/town]

[npc]
	[index]
		1
	[name]
		`林纳斯`
	[role]
		`[item shop]`
		`[upgrade item]`
	[/role]
	[shop]
		0
		[level]
			1	30
		[job]
			0	1
		[/job]
	[/shop]
	[skill]
		0
[/npc]
