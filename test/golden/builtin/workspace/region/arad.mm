#PVF_File
# Example minimap written from pvf-tag-facts §17 (.mm); values are illustrative.

[world]
	[index]
		1
	[town]
		[index]
			1
		[area]
			[type]
				4
			[real rect]
				0	0	100	100
		[/area]
		[npc]
			[index]
				1
			[role]
				[shop]
					0
				[job]
					0	1
			[/role]
		[/npc]
	[/town]
[/world]
