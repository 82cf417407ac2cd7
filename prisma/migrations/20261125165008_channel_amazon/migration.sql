-- AlterEnum
ALTER TYPE "Channel" ADD VALUE 'amazon';
