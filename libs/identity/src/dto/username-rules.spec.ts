import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateUserDto } from './create-user.dto';
import { isValidUsername, USERNAME_FORMAT_MESSAGE } from './username-rules';

describe(isValidUsername.name, () => {
  it.each(['alice', 'a', '_', 'alice.bob', 'alice-bob', 'alice_bob', 'a1', 'Alice-', '_alice', 'a.b.c', '9lives'])('accepts %j', (username) => {
    expect(isValidUsername(username)).toBe(true);
  });

  it.each(['alice.', '.alice', 'al..ice', '-alice', 'alice.git', 'alice.atom', 'ALICE.GIT', 'al ice', 'alïce', 'a/b', '', '.', '..', 'a.-b', 'a-.b'])(
    'refuses %j',
    (username) => {
      expect(isValidUsername(username)).toBe(false);
    },
  );

  it("is what the create-user DTO applies, with GitLab's message", () => {
    const errors = validateSync(plainToInstance(CreateUserDto, { username: 'al..ice', name: 'A', email: 'a@example.com', password: 'long-enough-1' }));
    expect(errors.find((e) => e.property === 'username')?.constraints).toEqual({ username: USERNAME_FORMAT_MESSAGE });
  });
});
