import { Controller, Get, type PipeTransform } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { REST_OF_PATH, RestOfPath, restOfPathName } from './rest-of-path';

class Upper implements PipeTransform<string, string> {
  transform(value: string): string {
    return value.toUpperCase();
  }
}

@Controller()
class PathsController {
  @Get('files/*')
  file(@RestOfPath('filePath', new Upper()) path: string) {
    return path;
  }

  @Get('other')
  other() {
    return 'other';
  }
}

describe('RestOfPath', () => {
  it("binds the router's wildcard with its pipes, and keeps the name the API documents it by", () => {
    const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, PathsController, 'file') as Record<
      string,
      { data: unknown; pipes: unknown[] }
    >;
    const [arg] = Object.values(args);
    expect(arg.data).toBe(REST_OF_PATH);
    expect(arg.pipes.map((pipe) => (pipe as object).constructor)).toEqual([Upper]);
    expect(restOfPathName(PathsController, 'file')).toBe('filePath');
    expect(restOfPathName(PathsController, 'other')).toBeUndefined();
  });
});
